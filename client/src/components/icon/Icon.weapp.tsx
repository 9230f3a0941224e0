import { Image } from '@tarojs/components';
import { iconSrc, ICON_COLORS } from './icons';
import type { IconProps } from './Icon';

/** WeChat: <image> with the SVG data URI; a labelled icon is read by the screen reader. */
export default function Icon({ name, color = 'ink', size = 'md', label, className }: IconProps) {
  return (
    <Image
      className={`icon icon--${size}${className ? ` ${className}` : ''}`}
      src={iconSrc(name, ICON_COLORS[color])}
      data-icon={name}
      {...(label ? { 'aria-role': 'img', 'aria-label': label } : { 'aria-hidden': 'true' })}
    />
  );
}
