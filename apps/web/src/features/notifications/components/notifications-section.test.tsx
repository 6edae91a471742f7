import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { NOTIFICATION_TEXTS, NotificationsSection } from "./notifications-section";

describe("Settings > Notifications", () => {
  it("switches each kind on the server, and says when this browser cannot receive pushes", async () => {
    const on = { reminders: true, runs: true, approvals: true };
    const api = fakeApi()
      .on("GET", "/api/push", Response.json({ publicKey: "BNc", settings: on, devices: 0 }))
      .on("PUT", "/api/push/settings", Response.json({ ...on, runs: false }));
    renderWithProviders(<NotificationsSection />);
    expect(await screen.findByText(NOTIFICATION_TEXTS.unsupported)).toBeTruthy();
    await userEvent.click(await screen.findByLabelText("A scheduled task finished"));
    await waitFor(() => expect(api.requests("PUT", "/api/push/settings").map((request) => request.body)).toEqual([{ ...on, runs: false }]));
  });
});
