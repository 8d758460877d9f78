// libFuzzer target: what doctor reads in a browser's profiles (DESIGN "Browsers"), on any
// bytes: the text as profiles.ini, and as JSON through the readers of extensions.json,
// extension-preferences.json, Preferences and Local State. Built by fuzz/run.sh from
// BrowserProfileFiles.swift, the JSON reader and the string helpers alone.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBrowserProfile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    let entries = FirefoxProfilesINI.entries(text, limit: 65)
    precondition(entries.count <= 65)
    for entry in entries { precondition(!entry.path.isEmpty && !(entry.isRelative && entry.path.hasPrefix("/"))) }
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    for id in ["miga@miga.app", "ofokomeiepojclgahgdjidagbanoehml"] {
        _ = FirefoxAddons.state(extensionsJSON: value, id: id)
        _ = FirefoxAddons.privateWindowsAllowed(extensionPreferences: value, id: id)
        _ = ChromiumPreferences.state(settings: ChromiumPreferences.settings(value, id: id))
    }
    let profiles = ChromiumPreferences.profiles(localState: value, limit: 65)
    precondition(profiles.count <= 65 && profiles.allSatisfy { ChromiumPreferences.isFolderName($0.folder) && !$0.folder.contains("/") })
    return 0
}
