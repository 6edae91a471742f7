import { Label } from "@/components/ui/label";
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

/** Settings > User Preferences: the theme radio (system default, light or dark). */
export function UserPreferences({ themeChoice, onThemeChoiceChange }: UserPreferencesProps) {
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
    </section>
  );
}
