import { tmpdir } from "node:os";
import path from "node:path";

/** The e2e server's data dir, derived from its port so test workers can find it. */
export const e2eDataDir = (port) => path.join(tmpdir(), `sage-e2e-${port}`);
