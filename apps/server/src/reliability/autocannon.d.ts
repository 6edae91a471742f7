// The few autocannon options and result fields the load test uses (the package ships no types).
declare module "autocannon" {
  interface Request {
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
    setupRequest?: (request: Request) => Request;
  }
  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats?: Record<string, { count: number }>;
  }
  function autocannon(options: {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests to make, instead of a duration. */
    amount?: number;
    /** Seconds a request may take before it counts as a timeout (autocannon's default: 10). */
    timeout?: number;
    headers?: Record<string, string>;
    requests?: Request[];
  }): Promise<Result>;
  export default autocannon;
}
