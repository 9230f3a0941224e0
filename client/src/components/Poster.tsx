import { Image, Text, View } from '@tarojs/components';
import { assetUrl } from '../services/config';

const GRADIENTS = [
  ['#ff5f6d', '#ffc371'],
  ['#7b2ff7', '#f107a3'],
  ['#0f2027', '#2c5364'],
  ['#ee0979', '#ff6a00'],
  ['#1d976c', '#93f9b9'],
  ['#4568dc', '#b06ab3'],
  ['#232526', '#414345'],
  ['#c31432', '#240b36'],
] as const;

/** Stable per show, so the same show always wears the same colours. */
export function posterGradient(seed: string): string {
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0;
  const [a, b] = GRADIENTS[h % GRADIENTS.length]!;
  return `linear-gradient(160deg, ${a} 0%, ${b} 100%)`;
}

interface PosterProps {
  id: string;
  title: string;
  posterUrl: string | null;
  size?: 'card' | 'hero' | 'thumb';
}

/** The show's poster image, or a gradient poster with the title when there is none. */
export default function Poster({ id, title, posterUrl, size = 'card' }: PosterProps) {
  if (posterUrl) {
    return <Image className={`poster poster--${size}`} src={assetUrl(posterUrl)} mode="aspectFill" />;
  }
  return (
    <View
      className={`poster poster--${size} poster--generated`}
      style={{ backgroundImage: posterGradient(id + title) }}
    >
      <View className="poster__shine" />
      <Text className="poster__title">{title}</Text>
      <Text className="poster__brand">SHOWTIX LIVE</Text>
    </View>
  );
}
