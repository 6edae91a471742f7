import autocannon from "autocannon";

/** Runs autocannon and returns throughput, latency percentiles and failures. */
export async function load({ url, connections = 50, durationSec = 10, method = "GET", headers = {}, body, setupRequest }) {
  const result = await autocannon({
    url,
    connections,
    duration: durationSec,
    method,
    headers,
    body,
    requests: setupRequest ? [{ setupRequest }] : undefined,
  });
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
