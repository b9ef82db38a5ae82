"""Sample contest agents: ``random_agent.py`` (the seed's Random Agent) and
``safe_bomber.py`` (the builtin safe bomber's idea in plain Python).  Run them with
``python -m botarena.envs.dungeon PATH/random_agent.py PATH/safe_bomber.py`` or by module
name (``botarena.envs.dungeon.sample_agents.random_agent``)."""
