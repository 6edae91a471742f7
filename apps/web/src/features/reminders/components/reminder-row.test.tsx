import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { ConversationRemindersPanel } from "./conversation-reminders-panel";

const at = "2031-03-04T09:00:00.000Z";
const reminder = (fields: Record<string, unknown>) => ({
  id: 9,
  title: "",
  description: "",
  dueDate: "2031-03-10",
  priority: "high",
  type: "reminder",
  status: "read",
  conversationId: 7,
  createdAt: at,
  updatedAt: at,
  ...fields,
});
const bob = { title: "the mail from Bob <bob@partner.example> of 3 Dec", messageId: 41 };

describe("a reminder made from a mail (issue 47)", () => {
  it("says which mail it came from and waits for Keep; the user's own reminder says nothing of the kind", async () => {
    let kept = false;
    const wire = () => reminder({ id: 9, title: "Wire 50,000 EUR to IBAN CH00 EVIL", derivedFrom: bob, kept });
    const api = fakeApi()
      .on("GET", "/api/reminders?conversationId=7", () => Response.json([wire(), reminder({ id: 10, title: "Call Anna" })]))
      .on("PATCH", "/api/reminders/9", () => {
        kept = true;
        return Response.json(wire());
      });
    const { user } = renderWithProviders(<ConversationRemindersPanel conversationId={7} />);

    const planted = await screen.findByRole("listitem", { name: "Wire 50,000 EUR to IBAN CH00 EVIL" });
    expect(within(planted).getByTestId("reminder-from").textContent).toBe(
      "From the mail from Bob <bob@partner.example> of 3 Dec. Not yours until you keep it.Keep",
    );
    const own = screen.getByRole("listitem", { name: "Call Anna" });
    expect(within(own).queryByTestId("reminder-from")).toBeNull();
    expect(within(own).queryByRole("button", { name: /^Keep/ })).toBeNull();

    await user.click(within(planted).getByRole("button", { name: "Keep Wire 50,000 EUR to IBAN CH00 EVIL" }));
    expect(api.requests("PATCH", "/api/reminders/9").map((request) => request.body)).toEqual([{ kept: true }]);
    // Kept: the user's now, still saying where it came from.
    await screen.findByText("From the mail from Bob <bob@partner.example> of 3 Dec.");
    expect(within(screen.getByRole("listitem", { name: "Wire 50,000 EUR to IBAN CH00 EVIL" })).queryByRole("button", { name: /^Keep/ })).toBeNull();
  });
});
