export function findImportCycles(root: string, projects: string[]): { files: number; cycles: string[][] };
