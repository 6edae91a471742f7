import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { ConversationModelPicker } from "./conversation-model-picker";

const settings = (allowedModels: string[]) => ({
  provider: "gemini",
  modelId: "gemini-2.0-flash",
  allowedModels,
  keySet: true,
  baseUrl: null,
  webSearch: "gemini",
});

describe("ConversationModelPicker", () => {
  it("offers the allowed models with the default marked, shows the chosen one, and sends null for the default", async () => {
    fakeApi().on("GET", "/api/assistant/settings", Response.json(settings(["gemini-2.0-flash", "gemini-2.5-pro"])));
    const onChange = vi.fn();
    const { user } = renderWithProviders(<ConversationModelPicker value="gemini-2.5-pro" onChange={onChange} />);
    const picker = await screen.findByRole("combobox", { name: "Model for this conversation" });
    expect([...picker.querySelectorAll("option")].map((option) => option.textContent)).toEqual(["gemini-2.0-flash (default)", "gemini-2.5-pro"]);
    expect(picker).toHaveProperty("value", "gemini-2.5-pro");
    await user.selectOptions(picker, "gemini-2.0-flash (default)");
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it("is not shown when the server allows one model only", async () => {
    fakeApi().on("GET", "/api/assistant/settings", Response.json(settings(["gemini-2.0-flash"])));
    const { queryClient } = renderWithProviders(<ConversationModelPicker value={undefined} onChange={() => {}} />);
    await vi.waitFor(() => expect(queryClient.getQueryData(["assistant-settings"])).toBeTruthy());
    expect(screen.queryByRole("combobox")).toBeNull();
  });
});
