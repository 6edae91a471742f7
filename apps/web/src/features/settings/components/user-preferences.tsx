import { useId, useState } from "react";
import { Label } from "@/components/ui/label";
import { VOICE_LANGUAGES, saveVoiceLanguage, voiceLanguage } from "@/lib/voice-language";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";

export type ThemeChoice = "system" | "light" | "dark";

const CHOICES: ReadonlyArray<{ value: ThemeChoice; label: string }> = [
  { value: "system", label: "System Default" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
];

function isThemeChoice(value: string): value is ThemeChoice {
  return CHOICES.some((choice) => choice.value === value);
}

interface UserPreferencesProps {
  themeChoice: ThemeChoice;
  onThemeChoiceChange: (choice: ThemeChoice) => void;
}

/** Settings > User Preferences: the theme radio (system default, light or dark) and the voice language. */
export function UserPreferences({ themeChoice, onThemeChoiceChange }: UserPreferencesProps) {
  const [language, setLanguage] = useState(voiceLanguage);
  const languageId = useId();
  return (
    <section aria-labelledby="user-preferences-heading" className="grid gap-6">
      <h2 id="user-preferences-heading" className="text-xl font-semibold">
        User Preferences
      </h2>
      <div className="grid gap-3">
        <span id="theme-preference-label" className="text-sm font-medium">
          Theme
        </span>
        <RadioGroup
          aria-labelledby="theme-preference-label"
          value={themeChoice}
          onValueChange={(value) => {
            if (isThemeChoice(value)) onThemeChoiceChange(value);
          }}
        >
          {CHOICES.map((choice) => (
            <div key={choice.value} className="flex items-center gap-3">
              <RadioGroupItem value={choice.value} id={`theme-${choice.value}`} />
              <Label htmlFor={`theme-${choice.value}`}>{choice.label}</Label>
            </div>
          ))}
        </RadioGroup>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={languageId}>Voice language</Label>
        <select
          id={languageId}
          value={language}
          onChange={(event) => {
            setLanguage(event.target.value);
            saveVoiceLanguage(event.target.value);
          }}
          aria-describedby={`${languageId}-hint`}
          className="h-9 w-full max-w-xs rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          {VOICE_LANGUAGES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <p id={`${languageId}-hint`} className="text-sm text-muted-foreground">
          The language SAGE listens and reads answers aloud in, on this device.
        </p>
      </div>
    </section>
  );
}
