"""Money as integer cents, so totals never drift by a float rounding error."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal


@dataclass(frozen=True, order=True)
class Money:
    cents: int
    currency: str = "EUR"

    @classmethod
    def parse(cls, text: str, currency: str = "EUR") -> "Money":
        """Parse "12.34" into Money(1234)."""
        value = Decimal(text.strip()) * 100
        return cls(int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP)), currency)

    def __add__(self, other: "Money") -> "Money":
        self._check(other)
        return Money(self.cents + other.cents, self.currency)

    def __sub__(self, other: "Money") -> "Money":
        self._check(other)
        return Money(self.cents - other.cents, self.currency)

    def __mul__(self, quantity: int) -> "Money":
        return Money(self.cents * quantity, self.currency)

    def _check(self, other: "Money") -> None:
        if other.currency != self.currency:
            raise ValueError(f"currency mismatch: {self.currency} vs {other.currency}")

    def __str__(self) -> str:
        sign = "-" if self.cents < 0 else ""
        whole, frac = divmod(abs(self.cents), 100)
        return f"{sign}{whole}.{frac:02d} {self.currency}"


def zero(currency: str = "EUR") -> Money:
    return Money(0, currency)


def percent_of(amount: Money, percent) -> Money:
    """Return percent% of amount, rounded half up to the cent.

    Discounts and taxes both go through here so that the shop and the
    storefront (web/cart.js) round the same way.
    """
    share = Decimal(amount.cents) * Decimal(str(percent)) / 100
    cents = int(share.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return Money(cents, amount.currency)


def sum_money(amounts, currency: str = "EUR") -> Money:
    """Add up Money values; an empty input is zero in the given currency."""
    result = zero(currency)
    for amount in amounts:
        result = result + amount
    return result
