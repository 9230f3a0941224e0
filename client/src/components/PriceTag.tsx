import { Text, View } from '@tarojs/components';
import { yuanNumber } from '../utils/money';

interface PriceTagProps {
  fen: number;
  /** "起" after a starting price. */
  from?: boolean;
  size?: 'sm' | 'md' | 'lg';
}

/** ¥ in small type, the amount large: how ticketing apps show prices. */
export default function PriceTag({ fen, from, size = 'md' }: PriceTagProps) {
  return (
    <View className={`price price--${size}`}>
      <Text className="price__sign">¥</Text>
      <Text className="price__num">{yuanNumber(fen)}</Text>
      {from ? <Text className="price__from">起</Text> : null}
    </View>
  );
}

/** The bottom bar's running total: its label and the large price the tests read by `testid`. */
export function BarTotal({ label, testid, fen }: { label: string; testid: string; fen: number }) {
  return (
    <View className="bottom-bar__info">
      <Text className="bottom-bar__label">{label}</Text>
      <View data-testid={testid}>
        <PriceTag fen={fen} size="lg" />
      </View>
    </View>
  );
}
