"""Discount rules applied to a cart.

Bulk tiers take a percentage off a single line once its quantity is large
enough. Voucher codes (PercentOff, FixedOff) apply to what is left of the
whole cart. The cart never goes below zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .money import Money, percent_of, sum_money, zero


@dataclass(frozen=True)
class PercentOff:
    """A percentage off the whole cart, e.g. the code SPRING10."""

    code: str
    percent: Decimal

    def amount(self, subtotal: Money) -> Money:
        return percent_of(subtotal, self.percent)


@dataclass(frozen=True)
class FixedOff:
    """A fixed amount off once the subtotal reaches a minimum."""

    code: str
    off: Money
    minimum: Money

    def amount(self, subtotal: Money) -> Money:
        if subtotal < self.minimum:
            return zero(subtotal.currency)
        return min(self.off, subtotal)


@dataclass(frozen=True)
class BulkTier:
    """Percent off one line when its quantity reaches min_qty units."""

    min_qty: int
    percent: Decimal


DEFAULT_TIERS = (
    BulkTier(min_qty=10, percent=Decimal("5")),
    BulkTier(min_qty=50, percent=Decimal("10")),
    BulkTier(min_qty=100, percent=Decimal("15")),
)


def best_tier(quantity: int, tiers=DEFAULT_TIERS):
    """The tier with the highest threshold that quantity reaches, or None."""
    chosen = None
    for tier in sorted(tiers, key=lambda t: t.min_qty):
        if quantity > tier.min_qty:
            chosen = tier
    return chosen


def line_discount(line, tiers=DEFAULT_TIERS) -> Money:
    """The bulk discount of one cart line."""
    tier = best_tier(line.quantity, tiers)
    if tier is None:
        return zero(line.unit_price.currency)
    return percent_of(line.amount, tier.percent)


def bulk_discount(lines, tiers=DEFAULT_TIERS, currency: str = "EUR") -> Money:
    """Sum of the bulk discounts of all lines."""
    return sum_money((line_discount(line, tiers) for line in lines), currency)


def voucher_discount(codes, remaining: Money) -> Money:
    """Apply voucher codes in order to what is left after bulk discounts."""
    total = zero(remaining.currency)
    for code in codes:
        off = min(code.amount(remaining - total), remaining - total)
        total = total + off
    return total
