import { SquareIcon, Volume2Icon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { speak, speechSynthesisOrNone, stopSpeaking } from "../speech-output";
import { ACTION_CLASS } from "./message-action-class";

/** Reads an answer aloud with the browser's voice; hidden where the browser cannot speak. */
export function ReadAloudButton({ content }: { content: string }) {
  const [speaking, setSpeaking] = useState(false);
  const speakingRef = useRef(false);
  speakingRef.current = speaking;
  // Leaving the conversation stops this answer being read.
  useEffect(() => () => void (speakingRef.current && stopSpeaking()), []);
  if (!speechSynthesisOrNone()) return null;

  function toggle() {
    if (speaking) {
      stopSpeaking();
      setSpeaking(false);
      return;
    }
    setSpeaking(speak(content, () => setSpeaking(false)));
  }

  return (
    <button
      type="button"
      className={ACTION_CLASS}
      aria-label={speaking ? "Stop reading aloud" : "Read aloud"}
      title={speaking ? "Stop reading aloud" : "Read aloud"}
      aria-pressed={speaking}
      onClick={toggle}
    >
      {speaking ? <SquareIcon aria-hidden className="size-3.5" /> : <Volume2Icon aria-hidden className="size-3.5" />}
    </button>
  );
}
