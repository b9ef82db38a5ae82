"""The games.  Each ``<game>_v<N>`` module is one registered env id."""
