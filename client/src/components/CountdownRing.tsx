import { Text, View } from '@tarojs/components';

/**
 * A small ring that empties as the current code's window runs out, with the seconds left in the
 * middle: the fan (and the gate) can see the code is live, not a screenshot.
 */
export default function CountdownRing({ fraction, seconds }: { fraction: number; seconds: number }) {
  const deg = Math.round(Math.max(0, Math.min(1, fraction)) * 360);
  return (
    <View
      className="ring"
      data-testid="countdown-ring"
      style={{ background: `conic-gradient(#ff2e63 ${deg}deg, #ffe0e8 ${deg}deg)` }}
    >
      <View className="ring__hole">
        <Text className="ring__text">{seconds}</Text>
      </View>
    </View>
  );
}
