import unittest
from decimal import Decimal

from pricebook import Cart, Money, PercentOff
from pricebook.discounts import best_tier


class CartTest(unittest.TestCase):
    def test_subtotal(self):
        cart = Cart()
        cart.add("mug", "8.50", 2)
        cart.add("tea-green", "4.25")
        self.assertEqual(cart.subtotal(), Money(2125))

    def test_same_sku_merges(self):
        cart = Cart()
        cart.add("mug", "8.50")
        cart.add("mug", "8.50", 3)
        self.assertEqual(len(cart.lines), 1)
        self.assertEqual(cart.lines[0].quantity, 4)

    def test_bulk_tier_applies(self):
        cart = Cart()
        cart.add("mug", "8.50", 12)
        self.assertEqual(cart.discount(), Money(510))

    def test_no_tier_below_ten(self):
        self.assertIsNone(best_tier(9))

    def test_voucher_after_bulk(self):
        cart = Cart(codes=[PercentOff("SPRING10", Decimal("10"))])
        cart.add("mug", "8.50", 12)
        self.assertEqual(cart.discount(), Money(510 + 969))

    def test_reduced_rate_for_books(self):
        cart = Cart()
        cart.add("book-go", "20.00")
        self.assertEqual(cart.tax(), Money(140))


if __name__ == "__main__":
    unittest.main()
