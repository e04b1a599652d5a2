"""The Review tab: the `Review` controller (its drafting and writes sides) and the panels it drives."""
from .controller import Review
from .host import ReviewHost
from .page import ReviewPage

__all__ = ["Review", "ReviewHost", "ReviewPage"]
