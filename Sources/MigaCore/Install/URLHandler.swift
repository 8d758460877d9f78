/// `miga-url-handler.desktop`: the entry that makes `miga open-url` the http/https handler.
public enum URLHandler {
    public static let desktopID = "miga-url-handler.desktop"
    public static let mimeTypes = ["x-scheme-handler/http", "x-scheme-handler/https"]

    public static func text(migaPath: String) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=miga link router
        Comment=Pauses before the social sites you chose; every other link goes straight to your browser
        Exec=\(DesktopShim.execQuoted(migaPath)) open-url %U
        TryExec=\(DesktopShim.stringEscaped(migaPath))
        MimeType=\(mimeTypes.map { $0 + ";" }.joined())
        Icon=app.miga.Gate
        NoDisplay=true
        Terminal=false
        StartupNotify=false

        """
    }
}
