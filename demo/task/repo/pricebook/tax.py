"""Value-added tax by shipping region."""

from __future__ import annotations

from decimal import Decimal

from .money import Money, percent_of

RATES = {
    "DE": Decimal("19"),
    "FR": Decimal("20"),
    "NL": Decimal("21"),
    "LU": Decimal("17"),
}

REDUCED_SKUS = {"book", "ebook"}


def rate_for(region: str, sku: str = "") -> Decimal:
    """The VAT rate for a region; books pay the reduced rate everywhere."""
    if sku.split("-", 1)[0] in REDUCED_SKUS:
        return Decimal("7")
    try:
        return RATES[region.upper()]
    except KeyError:
        raise ValueError(f"no VAT rate for region {region!r}") from None


def tax_for(amount: Money, region: str, sku: str = "") -> Money:
    """VAT on an amount that does not include it yet."""
    return percent_of(amount, rate_for(region, sku))
