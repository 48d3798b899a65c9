/** A link OS2mo's frontend shows in its menu (2.4.0 `backend/mora/config.py`, `NavLink`). */
export interface NavLink {
  href: string;
  text: string;
}

/**
 * A unit's settings as OS2mo 2.4.0 answers them without its configuration database (`conf_db_use` false, the
 * default): every `confdb_*` setting of `backend/mora/config.py:110-137` with its default, named without the
 * prefix (`conf_db/__init__.py`, `get_settings_configuration`), in the order the settings declare them.
 */
export const unitConfiguration = {
  show_roles: true,
  show_kle: false,
  show_user_key: true,
  show_location: true,
  show_time_planning: false,
  show_level: true,
  show_primary_engagement: false,
  show_primary_association: false,
  show_org_unit_button: false,
  inherit_manager: true,
  association_dynamic_facets: '',
  substitute_roles: '',
  show_cpr_no: true,
  show_user_key_in_search: false,
  extension_field_ui_labels: '',
  show_engagement_hyperlink: false,
  show_seniority: false,
  show_owner: false,
  autocomplete_use_new_api: false,
  autocomplete_attrs_employee: null,
  autocomplete_attrs_orgunit: null,
} as const;

/**
 * The global settings: a unit's, and `confdb_autocomplete_use_new_api` under its full name, which 2.4.0's
 * `get_global_configuration` adds (`service/configuration.py:77-97`).
 */
export const globalConfiguration = { ...unitConfiguration, confdb_autocomplete_use_new_api: false } as const;
