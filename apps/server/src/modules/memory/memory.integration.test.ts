import { POSTGRES_MISSING, postgresInstalled } from "@sage/testkit/postgres-server";
import { afterAll, describe } from "vitest";
import { postgresTestDatabases } from "../../test/test-databases.ts";
import { memoryCases } from "./memory-test-helpers.ts";

const installed = postgresInstalled();
if (!installed) console.warn(POSTGRES_MISSING);

describe.skipIf(!installed)("memories on PostgreSQL", () => {
  const databases = postgresTestDatabases();
  afterAll(() => databases.stop());
  memoryCases("PostgreSQL", databases.open);
});
