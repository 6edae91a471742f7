// The health pinger's own process (see health-probe.mjs): it pings until its parent sends "stop", then answers
// the latencies and the failures and exits.
import { pingHealth } from "./health-probe.mjs";

const [url, everyMs] = process.argv.slice(2);
let stopped = false;
const failures = [];
process.once("message", () => (stopped = true));
const latencies = await pingHealth(url, () => stopped, Number(everyMs), failures);
process.send({ latencies, failures }, () => process.exit(0));
