import ArgumentParser
import MigaCore

struct DoctorCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check PATH order, shims, the link handler, browsers and their profiles, the terminal, the database and config.",
        discussion: """
            Each problem comes with the command that fixes it. Exit status 1 when there is one.

            Example:
              miga doctor
            """
    )

    func run(_ context: MigaContext) throws {
        let findings = Doctor(context: context).check()
        let color = CommandSupport.useColor(context), palette = CommandSupport.palette(context)
        for finding in findings {
            let mark: String
            switch finding.status {
            case .ok: mark = color ? "\u{1B}[\(palette.good)mok\u{1B}[0m     " : "ok      "
            case .problem: mark = color ? "\u{1B}[31mproblem\u{1B}[0m" : "problem "
            case .note: mark = color ? "\u{1B}[\(palette.notice)mnote\u{1B}[0m   " : "note    "
            }
            // A finding may quote what it found (a file name in the sync folder, a name from
            // another machine): every one goes through the sanitiser on its way out.
            for line in finding.lines(mark: mark) { try context.output.line(line) }
        }
        if findings.contains(where: { $0.status == .problem }) { throw ExitCode.failure }
    }
}
