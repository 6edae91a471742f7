import { MicIcon, MicOffIcon } from "lucide-react";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { toastError } from "@/components/ui/toast-error";
import { useSpeechRecognition } from "../hooks/use-speech-recognition";

/** A microphone toggle; hidden where the browser has no speech recognition. Final transcripts are sent as messages. */
export function VoiceInputButton({ onTranscript, disabled }: { onTranscript: (text: string) => void; disabled?: boolean }) {
  const voice = useSpeechRecognition(onTranscript);

  useEffect(() => {
    if (voice.error) toastError({ title: "Voice Input Error", description: voice.error });
  }, [voice.error]);

  if (!voice.supported) return null;
  const listening = voice.state === "listening";
  return (
    <div className="flex flex-col items-center gap-1">
      <Button
        type="button"
        variant={listening ? "destructive" : "outline"}
        size="icon"
        aria-label={listening ? "Stop voice input" : "Start voice input"}
        aria-pressed={listening}
        disabled={disabled && !listening}
        onClick={listening ? voice.stop : voice.start}
      >
        {listening ? <MicOffIcon aria-hidden /> : <MicIcon aria-hidden />}
      </Button>
      {listening && <span className="sr-only">Listening...</span>}
      {voice.interim && (
        <span className="max-w-40 truncate text-xs text-muted-foreground" aria-live="polite">
          {voice.interim}
        </span>
      )}
      {voice.state === "error" && voice.error && (
        <span className="text-xs text-destructive" role="alert">
          {voice.error}
        </span>
      )}
    </div>
  );
}
