/** `bitext/errors`: the typed failures every entry point throws; `kind` tells them apart for a program. */
export {
  InputError,
  type InputLocation,
  LayoutMismatch,
  NetworkError,
  type NetworkErrorKind,
  NotEnoughData,
  ReadOnlyInstallation,
  SettingError,
  StoreError,
  UserError,
  type UserErrorKind,
} from "../errors.js";
