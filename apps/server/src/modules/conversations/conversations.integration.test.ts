import { describeOnPostgres } from "../../test/test-databases.ts";
import { conversationRowCases } from "./conversations-test-helpers.ts";

describeOnPostgres("conversations on PostgreSQL", (databases) => {
  conversationRowCases("PostgreSQL", databases.open);
});
