import { AudioLinesIcon, PhoneOffIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { VoiceModeState } from "../hooks/use-voice-mode";

const STATE_TEXT: Record<Exclude<VoiceModeState, "off">, string> = {
  listening: "Listening...",
  thinking: "Thinking...",
  speaking: "Speaking...",
  stopped: "Voice mode stopped",
};

/** Starts and ends voice mode, and says what it is doing; hidden where the browser cannot recognise speech. */
export function VoiceModeButton({ voice }: { voice: { supported: boolean; state: VoiceModeState; error?: string; on: boolean; start(): void; stop(): void } }) {
  if (!voice.supported) return null;
  return (
    <div className="flex items-center gap-2">
      <Button
        type="button"
        variant={voice.on ? "destructive" : "outline"}
        size="icon"
        aria-label={voice.on ? "End voice mode" : "Start voice mode"}
        title={voice.on ? "End voice mode" : "Voice mode: talk with SAGE hands-free"}
        aria-pressed={voice.on}
        onClick={voice.on ? voice.stop : voice.start}
      >
        {voice.on ? <PhoneOffIcon aria-hidden /> : <AudioLinesIcon aria-hidden />}
      </Button>
      <span role="status" data-testid="voice-mode-state" data-state={voice.state} className="text-xs text-muted-foreground empty:hidden">
        {voice.state === "off" ? "" : voice.error ? `${STATE_TEXT[voice.state]}: ${voice.error}` : STATE_TEXT[voice.state]}
      </span>
    </div>
  );
}
