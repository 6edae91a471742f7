import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { ChatPanel } from "./chat-panel";

const settings = (provider: string, modelId: string | null) => ({ provider, modelId, allowedModels: [], keySet: false, baseUrl: null, webSearch: "none" });

function openChat(provider: string, modelId: string | null) {
  fakeApi()
    .on("GET", "/api/assistant/settings", Response.json(settings(provider, modelId)))
    .on("GET", "/api/approvals", Response.json({ approvals: [] }));
  return renderWithProviders(<ChatPanel conversationId="7" messages={[]} messagesQueryKey={["conversations", "7", "messages"]} />);
}

describe("With no model configured", () => {
  it("the chat says so before anything is typed, in plain words, with the technical detail one click away", async () => {
    const { user } = openChat("none", null);
    const banner = await screen.findByRole("region", { name: "No AI model is connected" });
    const [plain, ...rest] = [...banner.querySelectorAll("p")].map((part) => part.textContent ?? "");
    expect(plain).toBe(
      "SAGE cannot answer messages until a model is connected. Whoever set up SAGE can connect Google Gemini with an API key, or a model running on this computer (such as Ollama), and restart SAGE. Your conversations, files and reminders work meanwhile.",
    );
    expect(plain).not.toMatch(/[A-Z]+_[A-Z]+/); // no environment variable names in the main text
    expect(rest[0]).toBe("See the model settings");
    const details = within(banner).getByText("Technical details").closest("details")!;
    expect(details.open).toBe(false);
    await user.click(within(banner).getByText("Technical details"));
    expect(details.open).toBe(true);
    expect(details.textContent).toContain("GEMINI_API_KEY");
    expect(within(banner).getByRole("link", { name: "See the model settings" }).getAttribute("href")).toBe("/settings?section=user-preferences");
  });

  it("shows no banner when a model is connected", async () => {
    const { queryClient } = openChat("gemini", "gemini-2.0-flash");
    await screen.findByText("Ask SAGE anything: draft an email, outline a presentation, set a reminder or search your documents.");
    await waitFor(() => expect(queryClient.getQueryData(["assistant-settings"])).toBeTruthy());
    expect(screen.queryByTestId("no-model-banner")).toBeNull();
  });
});
