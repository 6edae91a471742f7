import { describe, expect, it } from "vitest";
import { filenameFrom } from "./vector-database";

describe("filenameFrom", () => {
  it("reads the filename from content-disposition and falls back to the default name", () => {
    expect(filenameFrom('attachment; filename="backup-2025.zip"')).toBe("backup-2025.zip");
    expect(filenameFrom("attachment; filename*=UTF-8''my%20backup.zip")).toBe("my backup.zip");
    expect(filenameFrom(null)).toBe("vector_db_backup.zip");
    expect(filenameFrom("attachment")).toBe("vector_db_backup.zip");
  });
});
