import Foundation

// libFuzzer target: the PATH shim writer and the name and command check, on any names,
// commands and miga paths (the input's three fields, split at 0xFF bytes). Built by fuzz/run.sh
// from AppCheck, ShellQuoting, PathShim and what they use alone; the template is shell/shim.sh
// as the repository holds it (run.sh runs this from the repository's root).
// The promises: a name the check accepts is a file name; a command it accepts is one line;
// a derived name is always accepted; and whatever it accepts yields a shim that sh reads with
// the same shape as one made of plain values: the same comments (so no value in a comment)
// and the same code outside single quotes (so every value is inside them).
let shimTemplate: String = {
    guard let text = try? String(contentsOfFile: "shell/shim.sh", encoding: .utf8) else {
        fatalError("shell/shim.sh not found: run this from the repository's root (fuzz/run.sh does)")
    }
    return text
}()

let plainShape = ScriptShape(PathShim.text(template: shimTemplate, migaPath: "/m", app: "a", command: "c"))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShim(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fields = UnsafeBufferPointer(start: data, count: size).split(separator: 0xFF, maxSplits: 2, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let name = fields[0]
    let command = fields.count > 1 ? fields[1] : name
    let miga = fields.count > 2 ? fields[2] : "/usr/bin/miga"

    precondition(AppCheck.problem(withName: AppCheck.name(derivedFrom: name)) == nil, "a derived name is refused: \(name)")
    let nameAccepted = AppCheck.problem(withName: name) == nil
    if nameAccepted {
        precondition(name != "." && name != ".." && !name.isEmpty && !name.contains("/"), "not a file name: \(name)")
        precondition(!name.unicodeScalars.contains(where: TerminalText.isControl), "a control character in a name")
    }
    let commandAccepted = AppCheck.problem(withCommand: command) == nil
    if commandAccepted {
        precondition(!command.isEmpty && !command.unicodeScalars.contains(where: TerminalText.isControl), "a command of more than one line")
    }
    // Any miga path, even one the check would refuse: it is quoted all the same.
    if nameAccepted && commandAccepted {
        let shim = PathShim.text(template: shimTemplate, migaPath: miga, app: name, command: command)
        let shape = ScriptShape(shim)
        precondition(shape.comments == plainShape.comments, "a value in a comment:\n\(shim)")
        precondition(shape.code == plainShape.code, "a value outside single quotes:\n\(shim)")
    }
    return 0
}

/// How sh reads a script as far as quoting goes: its comments, and the code outside them with
/// every single-quoted word (the '…'\''…' idiom for a quote inside included) reduced to ''.
struct ScriptShape: Equatable {
    var code: [Unicode.Scalar] = []
    var comments: [String] = []

    init(_ script: String) {
        let text = Array(script.unicodeScalars)
        var index = 0
        var wordStart = true
        func at(_ offset: Int, is scalar: Unicode.Scalar) -> Bool { index + offset < text.count && text[index + offset] == scalar }
        while index < text.count {
            let scalar = text[index]
            switch scalar {
            case "'":
                index += 1
                while true {
                    while index < text.count && text[index] != "'" { index += 1 }
                    guard at(1, is: "\\") && at(2, is: "'") && at(3, is: "'") else { break }
                    index += 4 // '\'' : the word goes on
                }
                index += 1
                code += ["'", "'"]
                wordStart = false
            case "\\":
                code += text[index..<min(index + 2, text.count)]
                index += 2
                wordStart = false
            case "\"":
                code.append(scalar)
                index += 1
                while index < text.count && text[index] != "\"" {
                    if text[index] == "\\" && index + 1 < text.count { code.append(text[index]); index += 1 }
                    code.append(text[index])
                    index += 1
                }
                if index < text.count { code.append("\""); index += 1 }
                wordStart = false
            case "#" where wordStart:
                let end = text[index...].firstIndex(of: "\n") ?? text.count
                comments.append(String(String.UnicodeScalarView(text[index..<end])))
                code.append("#")
                index = end
            default:
                code.append(scalar)
                index += 1
                wordStart = " \t\n;&|()".unicodeScalars.contains(scalar)
            }
        }
    }
}
