/** The e2e server's data dir, derived from its port so test workers can find it. */
export function e2eDataDir(port: number | string | undefined): string;
