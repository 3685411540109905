// A mini-game's wheel: one segment per prize, sized by its chance. After a play it turns to the
// number the server drew and recorded (draw, out of totalWeight), so the animation shows that
// draw, not a second one made up here. Without motion (prefers-reduced-motion) it jumps there.
import { useEffect, useRef, useState } from 'preact/hooks';

const COLOURS = ['var(--primary)', 'var(--secondary)', 'var(--card-accent)', 'var(--bar-active)'];

export function Wheel(props: {
  prizes: { label: string; chance: number }[];
  /** The recorded draw to turn to: its number, and the table's total weight. */
  draw: { draw: number; totalWeight: number; id: number } | null;
  onTurned: () => void;
}) {
  const [turn, setTurn] = useState(0);
  const onTurned = useRef(props.onTurned);
  onTurned.current = props.onTurned;
  const { draw } = props;
  useEffect(() => {
    if (!draw) return;
    // The drawn number's place on the circle, brought under the pointer (top), after 5 turns.
    const at = ((draw.draw + 0.5) / draw.totalWeight) * 360;
    setTurn((current) => current - (current % 360) + 5 * 360 + (360 - at));
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const timer = setTimeout(() => onTurned.current(), still ? 0 : 3200);
    return () => clearTimeout(timer);
    // A new play (its id) turns the wheel once; the same draw re-rendered does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draw?.id]);

  let start = 0;
  const slices = props.prizes.map((p, i) => {
    const from = start;
    start += p.chance * 360;
    return { ...p, from, to: start, colour: COLOURS[i % COLOURS.length]! };
  });
  const point = (angle: number, r = 48) => {
    const rad = ((angle - 90) * Math.PI) / 180;
    return `${50 + r * Math.cos(rad)} ${50 + r * Math.sin(rad)}`;
  };
  return (
    <div class="wheel" aria-hidden="true">
      <div class="pointer" />
      <svg viewBox="0 0 100 100" style={{ transform: `rotate(${turn}deg)` }}>
        {slices.map((s) =>
          s.to - s.from >= 359.99 ? (
            <circle key={s.label} cx="50" cy="50" r="48" fill={s.colour} />
          ) : (
            <path
              key={s.label}
              d={`M50 50 L${point(s.from)} A48 48 0 ${s.to - s.from > 180 ? 1 : 0} 1 ${point(s.to)} Z`}
              fill={s.colour}
              stroke="var(--card)"
              stroke-width="0.5"
            />
          ),
        )}
      </svg>
    </div>
  );
}
