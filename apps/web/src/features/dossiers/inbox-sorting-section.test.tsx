import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { INBOX_SORTING_TEXTS, InboxSortingSection } from "./inbox-sorting-section";

const settings = (enabled: boolean, labelInMailbox = false) => ({
  enabled,
  folders: null,
  followUpDays: 3,
  drafts: true,
  labelInMailbox,
  style: null,
  modelAvailable: true,
});
const read = {
  rules: [
    {
      text: "Anything from the board is urgent",
      understood: true,
      meaning: 'Mail from "the board" (a name, address, organisation, role or contact group) is marked urgent.',
    },
    { text: "Be gentle with recruiters", understood: false, meaning: "SAGE gives this rule to the model as your instruction." },
  ],
};

describe("InboxSortingSection", () => {
  it("shows sorting on, saves the user's rules one per line and says how SAGE read each, and turns sorting off", async () => {
    const api = fakeApi()
      .on("GET", "/api/triage/settings", Response.json(settings(true)))
      .on("GET", "/api/triage/rules", Response.json({ rules: [] }))
      .on("PUT", "/api/triage/rules", Response.json(read))
      .on("PUT", "/api/triage/settings", Response.json(settings(false)));
    renderWithProviders(<InboxSortingSection />);
    const sorting = (await screen.findByRole("checkbox", { name: INBOX_SORTING_TEXTS.sorting })) as HTMLInputElement;
    expect(sorting.checked).toBe(true);

    fireEvent.change(screen.getByLabelText(INBOX_SORTING_TEXTS.rules), {
      target: { value: "Anything from the board is urgent\n\n  Be gentle with recruiters  \n" },
    });
    fireEvent.click(screen.getByRole("button", { name: INBOX_SORTING_TEXTS.save }));
    expect((await screen.findByRole("status")).textContent).toBe(INBOX_SORTING_TEXTS.saved);
    expect(api.requests("PUT", "/api/triage/rules").map((request) => request.body)).toEqual([
      { rules: ["Anything from the board is urgent", "Be gentle with recruiters"] },
    ]);
    const explained = screen.getByRole("region", { name: INBOX_SORTING_TEXTS.read });
    expect(
      within(explained)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      'Anything from the board is urgent — Mail from "the board" (a name, address, organisation, role or contact group) is marked urgent.',
      "Be gentle with recruiters — SAGE gives this rule to the model as your instruction.",
    ]);

    fireEvent.click(sorting);
    await vi.waitFor(() => expect(sorting.checked).toBe(false));
    expect(api.requests("PUT", "/api/triage/settings").map((request) => request.body)).toEqual([{ enabled: false }]);
  });

  it("leaves labels out of the mailbox until the user turns 'Label in my mailbox' on", async () => {
    const api = fakeApi()
      .on("GET", "/api/triage/settings", Response.json(settings(true)))
      .on("GET", "/api/triage/rules", Response.json({ rules: [] }))
      .on("PUT", "/api/triage/settings", Response.json(settings(true, true)));
    renderWithProviders(<InboxSortingSection />);
    const labels = (await screen.findByRole("checkbox", { name: INBOX_SORTING_TEXTS.labelInMailbox })) as HTMLInputElement;
    expect(labels.checked).toBe(false);
    expect(labels.getAttribute("aria-describedby")).toBeTruthy();
    fireEvent.click(labels);
    await vi.waitFor(() => expect(labels.checked).toBe(true));
    expect(api.requests("PUT", "/api/triage/settings").map((request) => request.body)).toEqual([{ labelInMailbox: true }]);
  });
});
