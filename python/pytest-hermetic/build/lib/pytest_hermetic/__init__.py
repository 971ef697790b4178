"""pytest fixtures for hermetic's Hermes Agent API emulator (the plugin is pytest_hermetic.plugin)."""
from .control import ControlPlaneError, Hermes, JournalExpectationFailed
from .server import HermesServer

__all__ = ["ControlPlaneError", "Hermes", "HermesServer", "JournalExpectationFailed"]
