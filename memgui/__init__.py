"""memgui — review, merge and audit an AI agent's long-term memory."""

__version__ = "0.1.0"
