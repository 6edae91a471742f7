import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearSession, startSession } from "@/features/auth/auth-session";
import { AppRouter } from "./router";

const settingsPage = vi.hoisted(() => ({ failing: true }));
vi.mock("./routes/settings-page", () => ({
  SettingsPage: () => {
    if (settingsPage.failing) throw new TypeError("Cannot read properties of undefined (reading 'modelId')");
    return <h1>Settings</h1>;
  },
}));
vi.mock("./routes/conversations-page", () => ({ ConversationsPage: () => <h1>Conversations</h1> }));

/** The router inside the shell's frame: a page that fails must leave the rest of the window usable. */
function openAt(path: string) {
  window.history.pushState(null, "", path);
  render(
    <>
      <nav>
        <a href="/settings">Settings</a>
      </nav>
      <main>
        <AppRouter />
      </main>
    </>,
  );
  return userEvent.setup({ delay: null });
}

beforeEach(() => {
  startSession(3);
  settingsPage.failing = true;
  // React reports each error a boundary catches to the console; these tests cause them on purpose.
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  // Unmounted first: a logged-out router would render the login form, which needs the app's providers.
  cleanup();
  clearSession();
  vi.restoreAllMocks();
});

describe("a page that fails", () => {
  it("says so in plain words, keeps the window around it, and has the technical detail one click away", async () => {
    openAt("/settings");
    const fallback = await screen.findByRole("alert");
    const heading = screen.getByRole("heading", { name: "Something went wrong" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(fallback.textContent).toContain("SAGE could not show this page. Nothing you saved is lost: your conversations, knowledge and reminders are safe.");
    expect(screen.getByRole("link", { name: "Settings" })).toBeTruthy();
    const details = screen.getByText("Technical details").closest("details")!;
    expect(details.open).toBe(false);
    expect(details.textContent).toContain("TypeError: Cannot read properties of undefined (reading 'modelId')");
  });

  it("Try again shows the page again once it renders", async () => {
    const user = openAt("/settings");
    await screen.findByRole("heading", { name: "Something went wrong" });
    settingsPage.failing = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { name: "Settings" })).toBeTruthy();
  });

  it("Go to conversations leaves the failed page for the conversation list", async () => {
    const user = openAt("/settings");
    await screen.findByRole("heading", { name: "Something went wrong" });
    await user.click(screen.getByRole("button", { name: "Go to conversations" }));
    expect(await screen.findByRole("heading", { name: "Conversations" })).toBeTruthy();
    expect(window.location.pathname).toBe("/conversations");
  });

  it("Reload page loads the app afresh", async () => {
    const reload = vi.spyOn(window.location, "reload").mockImplementation(() => undefined);
    const user = openAt("/settings");
    await screen.findByRole("heading", { name: "Something went wrong" });
    await user.click(screen.getByRole("button", { name: "Reload page" }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });
});
