import { useAssistantSettings } from "../api/get-assistant-settings";

interface ConversationModelPickerProps {
  /** The model chosen for this conversation; undefined for the default. */
  value: string | undefined;
  /** null: back to the default model. */
  onChange: (model: string | null) => void;
  disabled?: boolean;
}

/** The model this conversation's turns use, from the models the server allows; shown when there is a choice. */
export function ConversationModelPicker({ value, onChange, disabled }: ConversationModelPickerProps) {
  const settings = useAssistantSettings();
  const data = settings.data;
  if (!data || data.provider === "none" || data.allowedModels.length < 2) return null;
  const fallback = data.modelId ?? data.allowedModels[0]!;
  const current = value && data.allowedModels.includes(value) ? value : fallback;
  return (
    <select
      aria-label="Model for this conversation"
      value={current}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value === fallback ? null : event.target.value)}
      className="h-8 max-w-40 truncate rounded-md border border-input bg-background px-2 text-xs shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      {data.allowedModels.map((model) => (
        <option key={model} value={model}>
          {model === fallback ? `${model} (default)` : model}
        </option>
      ))}
    </select>
  );
}
