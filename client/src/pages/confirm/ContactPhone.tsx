import { Text, View } from '@tarojs/components';
import { TextField } from '../../components/Field';
import { maskPhone } from '../../services/shared';

interface Props {
  value: string;
  error?: string;
  /** The order exists: the number it carries can no longer change. */
  locked: boolean;
  onChange: (value: string) => void;
}

/** 联系手机: the organiser's support finds the order by it, so every order carries one. */
export default function ContactPhone({ value, error, locked, onChange }: Props) {
  if (locked) {
    return (
      <View className="card">
        <View className="line" data-testid="contact-phone-summary">
          <Text className="line__label">联系手机</Text>
          <Text className="line__sub">{maskPhone(value)}</Text>
        </View>
      </View>
    );
  }
  return (
    <View className="card">
      <Text className="card__title">联系方式</Text>
      <TextField
        label="联系手机"
        className="contact__input"
        testid="contact-phone"
        type="number"
        maxlength={11}
        placeholder="用于订单联系与售后"
        value={value}
        onInput={onChange}
      />
      {error ? (
        <Text className="field__error" data-testid="contact-phone-error">
          {error}
        </Text>
      ) : null}
    </View>
  );
}
