export const SAGE_VERSION = "0.1.0";
