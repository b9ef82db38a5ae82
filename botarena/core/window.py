"""The ``human`` render mode: a pygame window (pygame is imported only when one opens)."""
import numpy as np


class HumanWindow:
    """A pygame window showing rgb frames (pygame is imported only here)."""

    def __init__(self, title, fps=8):
        import pygame
        self.pygame = pygame
        pygame.init()
        pygame.display.set_caption(title)
        self.fps = fps
        self.screen = None
        self.clock = pygame.time.Clock()

    def show(self, frame):
        pygame = self.pygame
        if self.screen is None:
            self.screen = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
        pygame.event.pump()
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(frame.transpose(1, 0, 2)))
        self.screen.blit(surface, (0, 0))
        pygame.display.flip()
        self.clock.tick(self.fps)

    def close(self):
        self.pygame.display.quit()
