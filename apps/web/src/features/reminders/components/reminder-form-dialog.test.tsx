import { screen, waitFor, within } from "@testing-library/react";
import { format } from "date-fns";
import { describe, expect, it } from "vitest";
import { errorReply, fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { shownToasts } from "@/test/shown-toasts";
import { ConversationRemindersPanel } from "./conversation-reminders-panel";
import { CreateReminderFromSheetDialog } from "./create-reminder-from-sheet-dialog";
import { EditReminderDialog } from "./edit-reminder-dialog";
import { toReminder } from "../api/get-reminders";

// A day of the month on screen when the calendar opens (it opens on the current month).
const now = new Date();
const day15 = new Date(now.getFullYear(), now.getMonth(), 15);
const dayLabel = (day: Date) => format(day, "EEEE, MMMM d, yyyy");
const at = "2031-03-04T09:00:00.000Z";
const savedReminder = (fields: Record<string, unknown>) => ({
  id: 9,
  title: "",
  description: "",
  dueDate: format(day15, "yyyy-MM-dd"),
  priority: "medium",
  type: "reminder",
  status: "unread",
  conversationId: 7,
  createdAt: at,
  updatedAt: at,
  ...fields,
});

describe("Reminder form in a conversation (title and due date required)", () => {
  async function openCreate() {
    const api = fakeApi().on("GET", "/api/reminders?conversationId=7", Response.json([]));
    const view = renderWithProviders(<ConversationRemindersPanel conversationId={7} />);
    await screen.findByText("No reminders for this conversation");
    await view.user.click(screen.getByRole("button", { name: "Add Reminder" }));
    return { ...view, api, dialog: screen.getByRole("dialog", { name: "Create Reminder" }) };
  }

  it("says what is missing and sends nothing", async () => {
    const { user, api, dialog } = await openCreate();
    await user.click(within(dialog).getByRole("button", { name: "Create Reminder" }));
    expect(within(dialog).getByText("Title is required")).toBeTruthy();
    expect(within(dialog).getByText("Due date is required")).toBeTruthy();
    expect(within(dialog).getByLabelText("Title").getAttribute("aria-invalid")).toBe("true");

    await user.type(within(dialog).getByLabelText("Title"), "Call Anna");
    await user.click(within(dialog).getByRole("button", { name: "Create Reminder" }));
    expect(within(dialog).queryByText("Title is required")).toBeNull();
    expect(within(dialog).getByText("Due date is required")).toBeTruthy();
    expect(api.requests("POST", "/api/reminders")).toEqual([]);
  });

  it("sends what was filled in, the day at the time given with its zone offset, and closes with a toast", async () => {
    const { user, api, dialog } = await openCreate();
    api.on("POST", "/api/reminders", Response.json(savedReminder({ title: "Call Anna" }), { status: 201 }));
    await user.type(within(dialog).getByLabelText("Title"), "Call Anna");
    await user.type(within(dialog).getByLabelText("Description"), "Agenda");
    await user.click(within(dialog).getByRole("button", { name: dayLabel(day15) }));
    await user.type(within(dialog).getByLabelText("Time"), "14:30");
    await user.click(within(dialog).getByRole("radio", { name: "High" }));
    await user.selectOptions(within(dialog).getByLabelText("Type"), "Task");
    await user.click(within(dialog).getByRole("button", { name: "Create Reminder" }));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const [sent] = api.requests("POST", "/api/reminders").map((request) => request.body as Record<string, unknown>);
    expect(sent).toEqual({
      title: "Call Anna",
      description: "Agenda",
      dueDate: expect.any(String),
      priority: "high",
      type: "task",
      conversationId: 7,
      status: "unread",
    });
    expect(sent!.dueDate).toMatch(/^\d{4}-\d{2}-15T14:30:00\.000[+-]\d{2}:\d{2}$/);
    expect(new Date(String(sent!.dueDate)).getTime()).toBe(new Date(day15.getFullYear(), day15.getMonth(), 15, 14, 30).getTime());
    expect(shownToasts()).toEqual([{ title: "Reminder created", description: "Your new reminder has been added.", variant: "default" }]);
  });

  it("sends a day without a time as the whole day, with the defaults: medium priority, a reminder", async () => {
    const { user, api, dialog } = await openCreate();
    api.on("POST", "/api/reminders", Response.json(savedReminder({ title: "Board day" }), { status: 201 }));
    await user.type(within(dialog).getByLabelText("Title"), "Board day");
    await user.click(within(dialog).getByRole("button", { name: dayLabel(day15) }));
    await user.click(within(dialog).getByRole("button", { name: "Create Reminder" }));

    await waitFor(() => expect(api.requests("POST", "/api/reminders")).toHaveLength(1));
    expect(api.requests("POST", "/api/reminders")[0]!.body).toEqual({
      title: "Board day",
      description: "",
      dueDate: format(day15, "yyyy-MM-dd"),
      priority: "medium",
      type: "reminder",
      conversationId: 7,
      status: "unread",
    });
  });

  it("shows the server's reason under the form and keeps what was typed", async () => {
    const { user, api, dialog } = await openCreate();
    api.on("POST", "/api/reminders", errorReply(400, "Bad Request", "The title is too long"));
    await user.type(within(dialog).getByLabelText("Title"), "Call Anna");
    await user.click(within(dialog).getByRole("button", { name: dayLabel(day15) }));
    await user.click(within(dialog).getByRole("button", { name: "Create Reminder" }));

    expect((await within(dialog).findByRole("alert")).textContent).toBe("The title is too long");
    expect(within(dialog).getByLabelText("Title")).toHaveProperty("value", "Call Anna");
    expect(shownToasts()).toEqual([]);
  });
});

describe("Reminder form in the reminders sheet (no rules of its own)", () => {
  it("sends even an empty form, and shows the server's reason in a 'Failed to create reminder' toast", async () => {
    const api = fakeApi().on("POST", "/api/reminders", errorReply(400, "Bad Request", "title must not be empty"));
    const { user } = renderWithProviders(<CreateReminderFromSheetDialog open onOpenChange={() => undefined} />);
    const dialog = screen.getByRole("dialog", { name: "Create New Reminder" });
    await user.click(within(dialog).getByRole("button", { name: "Create Reminder" }));

    await waitFor(() =>
      expect(shownToasts()).toEqual([{ title: "Failed to create reminder", description: "title must not be empty", variant: "destructive" }]),
    );
    expect(api.requests("POST", "/api/reminders").map((request) => request.body)).toEqual([
      { title: "", description: "", priority: "medium", status: "unread", type: "reminder" },
    ]);
    expect(within(dialog).queryByText("Title is required")).toBeNull();
  });

  it("says 'Failed to create reminder' when the server gives no reason", async () => {
    fakeApi().on("POST", "/api/reminders", new Response("", { status: 502, statusText: "Bad Gateway" }));
    const { user } = renderWithProviders(<CreateReminderFromSheetDialog open onOpenChange={() => undefined} />);
    await user.type(screen.getByLabelText("Title"), "Call Anna");
    await user.click(screen.getByRole("button", { name: "Create Reminder" }));
    await waitFor(() =>
      expect(shownToasts()).toEqual([{ title: "Failed to create reminder", description: "Failed to create reminder", variant: "destructive" }]),
    );
  });
});

describe("Editing a reminder", () => {
  it("starts from the reminder and sends only what changed", async () => {
    const reminder = toReminder(savedReminder({ title: "Call Anna", priority: "low" }) as Parameters<typeof toReminder>[0]);
    const api = fakeApi().on("PATCH", "/api/reminders/9", Response.json(savedReminder({ title: "Call Anna and Ben", priority: "low" })));
    let closed = false;
    const { user } = renderWithProviders(<EditReminderDialog reminder={reminder} onClose={() => (closed = true)} />);
    const dialog = screen.getByRole("dialog", { name: "Edit Reminder" });
    expect(within(dialog).getByLabelText("Title")).toHaveProperty("value", "Call Anna");
    expect(within(dialog).getByRole("radio", { name: "Low" }).getAttribute("aria-checked")).toBe("true");
    expect(
      within(dialog)
        .getByRole("button", { name: dayLabel(day15) })
        .getAttribute("aria-pressed"),
    ).toBe("true");

    await user.type(within(dialog).getByLabelText("Title"), " and Ben");
    await user.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(closed).toBe(true));
    expect(api.requests("PATCH", "/api/reminders/9").map((request) => request.body)).toEqual([{ title: "Call Anna and Ben" }]);
    expect(shownToasts()).toEqual([]); // the change is on screen: no toast
  });
});
