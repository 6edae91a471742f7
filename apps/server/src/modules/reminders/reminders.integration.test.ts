import { describeOnPostgres } from "../../test/test-databases.ts";
import { reminderCases } from "./reminders-test-helpers.ts";

describeOnPostgres("reminders on PostgreSQL", (databases) => {
  reminderCases("PostgreSQL", databases.open);
});
