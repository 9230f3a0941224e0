import { iconSrc, ICON_COLORS, type IconColor, type IconName } from './icons';

export interface IconProps {
  name: IconName;
  color?: IconColor;
  /** Size class: icon--sm 32, icon--md 40 (default), icon--lg 48, icon--xl 64 design px. */
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** Only for an icon that stands alone as the name of a control; otherwise it is decoration. */
  label?: string;
  className?: string;
}

/** Browser build (and unit tests): a plain <img>, so its alt and aria-hidden reach the page as written. */
export default function Icon({ name, color = 'ink', size = 'md', label, className }: IconProps) {
  return (
    <img
      className={`icon icon--${size}${className ? ` ${className}` : ''}`}
      src={iconSrc(name, ICON_COLORS[color])}
      alt={label ?? ''}
      data-icon={name}
      {...(label ? { role: 'img' } : { 'aria-hidden': 'true' })}
    />
  );
}
