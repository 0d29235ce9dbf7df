/** The types of what a tool carries besides its call: its icons, its app, who may call it. */

/** An icon that passed the checks below: safe for the extension to load into an `<img>`. */
export interface SafeIcon {
  src: string;
  mimeType: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** A tool's app: where its UI is. */
export interface ToolApp {
  /** The `ui://` resource of the app's HTML, on the tool's own server. */
  resourceUri: string;
}

/** Who may call a tool, as its server declared (`_meta.ui.visibility`); a tool that declares none: both. */
export interface ToolVisibility {
  /** The model is offered it (and may call it). */
  model: boolean;
  /** An app of its server may call it. */
  app: boolean;
}
