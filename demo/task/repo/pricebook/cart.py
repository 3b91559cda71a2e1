"""A shopping cart: lines, subtotal, discounts, tax and the total."""

from __future__ import annotations

from dataclasses import dataclass, field

from .discounts import DEFAULT_TIERS, bulk_discount, voucher_discount
from .money import Money, sum_money
from .tax import tax_for


@dataclass
class LineItem:
    sku: str
    unit_price: Money
    quantity: int = 1

    @property
    def amount(self) -> Money:
        return self.unit_price * self.quantity


@dataclass
class Cart:
    region: str = "DE"
    currency: str = "EUR"
    lines: list = field(default_factory=list)
    codes: list = field(default_factory=list)
    tiers: tuple = DEFAULT_TIERS

    def add(self, sku: str, unit_price: str, quantity: int = 1) -> LineItem:
        if quantity < 1:
            raise ValueError("quantity must be at least 1")
        for line in self.lines:
            if line.sku == sku:
                line.quantity += quantity
                return line
        line = LineItem(sku, Money.parse(unit_price, self.currency), quantity)
        self.lines.append(line)
        return line

    def subtotal(self) -> Money:
        return sum_money((line.amount for line in self.lines), self.currency)

    def discount(self) -> Money:
        """Bulk tiers first, then voucher codes on what is left."""
        bulk = bulk_discount(self.lines, self.tiers, self.currency)
        vouchers = voucher_discount(self.codes, self.subtotal() - bulk)
        return bulk + vouchers

    def tax(self) -> Money:
        # Tax is charged on the discounted amount, spread over lines by value.
        subtotal = self.subtotal()
        if subtotal.cents == 0:
            return subtotal
        after = subtotal - self.discount()
        taxes = []
        for line in self.lines:
            share = Money(after.cents * line.amount.cents // subtotal.cents, self.currency)
            taxes.append(tax_for(share, self.region, line.sku))
        return sum_money(taxes, self.currency)

    def total(self) -> Money:
        return self.subtotal() - self.discount() + self.tax()

    def summary(self) -> dict:
        return {
            "subtotal": str(self.subtotal()),
            "discount": str(self.discount()),
            "tax": str(self.tax()),
            "total": str(self.total()),
        }
