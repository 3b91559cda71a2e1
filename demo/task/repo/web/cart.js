// Storefront cart preview. Mirrors pricebook's discount rules so the page can
// show the price before the order reaches the server; the server's total is
// the one that is charged.

export const TIERS = [
  { minQty: 10, percent: 5 },
  { minQty: 50, percent: 10 },
  { minQty: 100, percent: 15 },
];

// percentOf rounds half up to the cent, like pricebook.money.percent_of.
export function percentOf(cents, percent) {
  return Math.floor((cents * percent) / 100 + 0.5);
}

export function bestTier(quantity, tiers = TIERS) {
  let chosen = null;
  for (const tier of [...tiers].sort((a, b) => a.minQty - b.minQty)) {
    if (quantity >= tier.minQty) {
      chosen = tier;
    }
  }
  return chosen;
}

export function linePreview(unitCents, quantity) {
  const amount = unitCents * quantity;
  const tier = bestTier(quantity);
  const discount = tier ? percentOf(amount, tier.percent) : 0;
  return { amount, discount, total: amount - discount };
}

export function formatMoney(cents, currency = "EUR") {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const frac = String(abs % 100).padStart(2, "0");
  return `${sign}${whole}.${frac} ${currency}`;
}

export function renderLine(row, sku, unitCents, quantity) {
  const p = linePreview(unitCents, quantity);
  row.querySelector(".sku").textContent = sku;
  row.querySelector(".qty").textContent = String(quantity);
  row.querySelector(".amount").textContent = formatMoney(p.amount);
  row.querySelector(".discount").textContent = p.discount ? `-${formatMoney(p.discount)}` : "";
  row.querySelector(".total").textContent = formatMoney(p.total);
}
