"""pricebook: carts, discounts and taxes for a small web shop."""

from .cart import Cart, LineItem
from .discounts import BulkTier, FixedOff, PercentOff
from .money import Money

__all__ = ["BulkTier", "Cart", "FixedOff", "LineItem", "Money", "PercentOff"]
__version__ = "0.4.1"
