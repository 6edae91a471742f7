/**
 * One benchmark figure. `limit` is measured in the same run (what the product is compared with) and
 * `ratio` is value/limit; `better` says which direction is good (higher for throughput, lower for latency).
 */
export function figure({ name, value, unit, limit = null, better = "higher", target = null, params = {} }) {
  const ratio = limit ? round(value / limit, 3) : null;
  return { name, value: round(value, 3), unit, limit: limit === null ? null : round(limit, 3), ratio, better, target, params };
}

export const round = (value, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

export function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
