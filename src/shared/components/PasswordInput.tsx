import { forwardRef, useState } from 'react';
import { IconButton, InputGroup, type InputProps } from '@chakra-ui/react';
import { TextInput } from './TextInput';
import { useT } from '@/shared/useT';
import { EyeIcon, EyeOffIcon } from './icons';

/** A password input with a show/hide toggle; place it inside a `Field.Root` for its label. */
export const PasswordInput = forwardRef<HTMLInputElement, Omit<InputProps, 'type'>>(function PasswordInput(props, ref) {
  const t = useT('common');
  const [visible, setVisible] = useState(false);
  return (
    <InputGroup
      endElement={
        <IconButton
          type="button"
          variant="ghost"
          size="sm"
          me="-2"
          aria-label={visible ? t('password.hide') : t('password.show')}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </IconButton>
      }
    >
      <TextInput ref={ref} type={visible ? 'text' : 'password'} {...props} />
    </InputGroup>
  );
});
