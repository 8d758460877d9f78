import FoundationEssentials

/// Plain mode for the welcome (`TERM=dumb`, screen readers): each screen once as numbered
/// lines, then a readline prompt; no cursor movement, no redraws. Numbers switch items, a name
/// adds an app, Enter goes on, b back, q (or Ctrl-C, Ctrl-D) leaves without a change.
final class PlainWelcome {
    private var form: WelcomeForm
    /// One line typed at a prompt (a `LineReader`, or lines a test types).
    private let read: (String) -> LineInput
    private let write: (String) -> Void

    init(form: WelcomeForm, read: @escaping (String) -> LineInput, write: @escaping (String) -> Void) {
        self.form = form
        self.read = read
        self.write = write
    }

    func run() -> WelcomeChoice? {
        show()
        while true {
            switch read(prompt) {
            case .line(let line):
                switch answer(line.trimming(.whitespaces)) {
                case .stay: break
                case .moved: show()
                case .chose: return form.choice
                case .left: return nil
                }
            case .endOfInput, .interrupted, .hungUp: return nil
            }
        }
    }

    enum Reply: Equatable { case stay, moved, chose, left }

    /// What one typed line does on the current screen.
    func answer(_ line: String) -> Reply {
        switch line.lowercased() {
        case "": return form.next() ? .chose : .moved
        case "q", "quit": return .left
        case "b", "back":
            form.back()
            return .moved
        default: break
        }
        switch form.step {
        case .about: write("Press Enter to go on, or type q to leave.\n")
        case .choose: choose(line)
        case .pause: pause(line)
        }
        return .stay
    }

    /// Numbers switch items on or off, anything else is an app's name to add.
    private func choose(_ line: String) {
        for word in line.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) {
            if let number = Int(word) {
                guard form.items.indices.contains(number - 1) else {
                    write("There is no \(number): type 1 to \(form.items.count).\n")
                    continue
                }
                form.toggle(item: number - 1)
            } else if case .failure(let problem) = form.add(appName: word) {
                write(problem.message + "\n")
            }
        }
        write("Chosen: " + chosenList + "\n")
    }

    /// A number from the timer's range sets it; 1 and the extras' numbers switch them.
    private func pause(_ line: String) {
        for word in line.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) {
            guard let number = Int(word) else {
                write("Type a number: \(MigaConfig.timerRange.lowerBound)–\(MigaConfig.timerRange.upperBound) for the timer, or 1–\(1 + form.extras.count) to switch a line.\n")
                continue
            }
            if form.setTimer(number) { continue }
            if number == 1 {
                form.comesBack.toggle()
            } else if form.extras.indices.contains(number - 2) {
                form.toggle(extra: number - 2)
            } else {
                write("There is no \(number): type \(MigaConfig.timerRange.lowerBound)–\(MigaConfig.timerRange.upperBound) for the timer, or 1–\(1 + form.extras.count).\n")
            }
        }
        showPause()
    }

    private var chosenList: String {
        let names = form.items.filter(\.chosen).map { TerminalText.forScreen($0.label) }
        return names.isEmpty ? "nothing yet" : names.joined(separator: ", ")
    }

    private var prompt: String {
        switch form.step {
        case .about: return "Enter to go on, q to leave > "
        case .choose: return "Numbers to switch, a name to add an app, Enter to go on, b back, q leave > "
        case .pause: return "A number, Enter to set up, b back, q leave > "
        }
    }

    private func show() {
        var text = "\n" + WelcomeWords.step(form.step) + "\n"
        switch form.step {
        case .about:
            text += WelcomeWords.about.joined(separator: "\n") + "\n"
        case .choose:
            text += WelcomeWords.chooseTitle + "\n"
            let apps = form.items.indices.filter { form.items[$0].kind == .app }
            text += (apps.isEmpty ? WelcomeWords.noAppsFound : WelcomeWords.appsFound) + "\n"
            for index in apps { text += line(index) }
            text += WelcomeWords.sitesTitle + "\n"
            for index in form.items.indices where form.items[index].kind == .site { text += line(index) }
        case .pause:
            write(text)
            showPause()
            return
        }
        write(text)
    }

    private func showPause() {
        var text = WelcomeWords.pauseTitle + ": " + WelcomeWords.timer(form.timerSeconds) + "\n"
        text += "1 \(mark(form.comesBack)) \(WelcomeWords.comeBack)\n"
        if !form.extras.isEmpty {
            text += WelcomeWords.extrasTitle + "\n"
            for (index, extra) in form.extras.enumerated() { text += "\(index + 2) \(mark(extra.chosen)) \(extra.label)\n" }
        }
        write(text)
    }

    private func line(_ index: Int) -> String {
        "\(index + 1) \(mark(form.items[index].chosen)) \(TerminalText.forScreen(form.items[index].label))\n"
    }

    /// Words a screen reader says, not a drawn box.
    private func mark(_ chosen: Bool) -> String { chosen ? "(on)" : "(off)" }
}
