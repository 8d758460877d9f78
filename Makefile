# miga — common tasks. `make demo` and `make test` are the README's two set-up commands.
SWIFT ?= swift
# A static Swift runtime starts several milliseconds faster than loading the shared one,
# which is most of the pass-through budget (see bench/run.sh); stripped for size.
# The C++ runtime under it is linked in as well: loading libstdc++.so and binding its symbols
# took about 0.6 ms of every launch. swiftc asks for -lstdc++ itself; the folder below holds
# a linker script of that name naming the static archive, and the archive is named once
# more at the end for the runtime libraries that come after. (Position-independent still:
# giving that up saves another ~0.4 ms but loses ASLR for a program that reads browsers'
# messages.) SwiftPM exports every symbol of an executable (-export-dynamic); nothing loads
# miga as a library, so they stay private: 1.3 MB smaller, 9,000 fewer symbols for the
# runtime's dladdr to walk at start. Linked by the toolchain's lld where it has one, with
# relative relocations packed (DT_RELR, glibc >= 2.36): 48,000 of them took 1.15 MB that
# every start read; packed they take 9 KB (0.3 ms of every start, 1.2 MB smaller).
# Debian's SQLite is linked from its static archive (libsqlite3-dev ships it) in the same
# way: Debian builds libsqlite3.so with BIND_NOW, so loading it bound some 1,600 symbols
# before main, 1.0-1.6M instructions of every launch (a third of a pass-through). Debian's
# package links the shared library instead (SQLITE_LINK=shared in debian/rules), so that
# Debian's security fixes to SQLite reach it without a rebuild. Given to the linker alone, so
# the two differ by a link, not a second build.
STATIC_DIR := $(CURDIR)/.build/static-libs
SQLITE_LINK ?= static
LIBSQLITE3_A := $(firstword $(wildcard /usr/lib/$(shell $(CC) -print-multiarch 2>/dev/null)/libsqlite3.a /usr/lib/libsqlite3.a))
STATIC_SQLITE = $(if $(filter static,$(SQLITE_LINK)),$(STATIC_DIR)/sqlite/libsqlite3.so)
# The compiler names a generic type it needs by its mangled name, which the runtime decodes
# the first time (and, for a Dictionary or Set, looks up the key's Hashable conformance
# among the binary's 4,600 conformances): a quarter of the instructions before a gate's
# first frame. Called accessors take the conformances from the code instead.
METADATA_ACCESSORS = -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
LIBSTDCXX_A := $(shell $(CXX) -print-file-name=libstdc++.a)
TOOLCHAIN_LLD := $(wildcard $(dir $(realpath $(shell command -v $(SWIFT))))ld.lld)
PACKED_RELOCATIONS = $(if $(TOOLCHAIN_LLD),-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs $(LAUNCH_ORDER))
# The functions a launch runs, laid out together (scripts/make-order-file.sh says why).
LAUNCH_ORDER = -Xlinker --symbol-ordering-file=$(CURDIR)/data/launch.order -Xlinker --no-warn-symbol-ordering
RELEASE_FLAGS = -c release $(METADATA_ACCESSORS) --static-swift-stdlib -Xlinker -s -Xlinker --no-export-dynamic $(PACKED_RELOCATIONS) -Xswiftc -L$(STATIC_DIR) $(if $(STATIC_SQLITE),-Xlinker -L$(STATIC_DIR)/sqlite) -Xlinker $(LIBSTDCXX_A)

# `make install PREFIX=~/.local` (the default is /usr/local); DESTDIR for packagers.
PREFIX ?= /usr/local
override PREFIX := $(patsubst ~%,$(HOME)%,$(PREFIX))
DESTDIR ?=
root = $(DESTDIR)$(PREFIX)
# Debian's package puts these where Debian keeps them (debian/rules).
ZSH_COMPLETIONS ?= $(PREFIX)/share/zsh/site-functions
# Where Debian's webext-* packages keep extensions; never PREFIX/share/miga, which is miga's
# data folder when PREFIX is ~/.local (and `miga uninstall --purge` empties that).
EXTENSION_DIR ?= $(PREFIX)/share/webext/miga
# The GNOME Shell extension: the 43–44 variant where GNOME Shell looks for system
# extensions, the 45+ variant beside miga's programs (a user of a newer shell copies it to
# ~/.local/share/gnome-shell/extensions; README says how). Not under share/miga either.
GNOME_SHELL_EXTENSION_DIR ?= $(PREFIX)/share/gnome-shell/extensions/miga@miga.app
GNOME_SHELL_45_DIR ?= $(PREFIX)/lib/miga/gnome-shell-45/miga@miga.app
# The one version source; debian/changelog must agree (`make deb` checks).
VERSION := $(shell sed -n 's/.*current = "\(.*\)"/\1/p' Sources/MigaCore/Version.swift)
installed = $(root)/bin/miga \
	$(root)/bin/miga-app \
	$(root)/share/applications/app.miga.Miga.desktop \
	$(root)/share/man/man1/miga-app.1 \
	$(root)/share/bash-completion/completions/miga \
	$(DESTDIR)$(ZSH_COMPLETIONS)/_miga \
	$(root)/share/fish/vendor_completions.d/miga.fish \
	$(root)/share/man/man1/miga.1 \
	$(root)/lib/miga/miga-native-host \
	$(root)/lib/miga/miga-gate-window \
	$(root)/share/applications/app.miga.Gate.desktop \
	$(root)/share/icons/hicolor/scalable/apps/app.miga.Gate.svg

.PHONY: deps release build extension gnome-extension demo test bench clean install install-files uninstall deb

# A demo or an install needs the build packages only; `make test` installs the test tools.
deps:
	@scripts/deps.sh build

# scripts/swift-build.sh is `swift build` less SwiftPM's harmless warning about GTK's flags.
release: $(STATIC_DIR)/libstdc++.so $(STATIC_SQLITE)
	SWIFT=$(SWIFT) scripts/swift-build.sh $(RELEASE_FLAGS)

$(STATIC_DIR)/libstdc++.so:
	@test -f "$(LIBSTDCXX_A)" || { echo "no static libstdc++ ($(CXX) -print-file-name=libstdc++.a): install g++" >&2; exit 1; }
	mkdir -p $(STATIC_DIR)
	echo 'INPUT($(LIBSTDCXX_A))' > $@

$(STATIC_DIR)/sqlite/libsqlite3.so:
	@test -n "$(LIBSQLITE3_A)" || { echo "no static SQLite (libsqlite3.a): install libsqlite3-dev" >&2; exit 1; }
	mkdir -p $(STATIC_DIR)/sqlite
	echo 'INPUT($(LIBSQLITE3_A))' > $@

build: deps release extension gnome-extension

# The extension per browser family, loadable unpacked: .build/browser/chromium and …/firefox.
extension:
	scripts/build-extension.sh .build/browser

# The GNOME Shell extension, both variants: .build/gnome-shell/43/miga@miga.app and …/45/….
gnome-extension:
	scripts/build-gnome-extension.sh .build/gnome-shell

# A real gateway in front of a demo command, with the bundled content; in a home of its own
# (.build/demo-home), so the demo is never in your stats, status, settings or sync folder;
# made afresh each time, so its trial never runs out.
demo: build
	rm -rf "$(CURDIR)/.build/demo-home" && env -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u XDG_STATE_HOME -u XDG_CACHE_HOME HOME="$(CURDIR)/.build/demo-home" .build/release/miga gate --app demo -- /usr/bin/env printf '%s\n' "The demo app opened with these arguments:" one "two words" ''

test:
	@scripts/deps.sh test
	scripts/test.sh

# The binary, shell completions and a man page, all generated by swift-argument-parser from
# the commands themselves, so they never drift from --help.
install: build
	$(MAKE) install-files
	@[ -n "$(DESTDIR)" ] || scripts/path-note.sh "$(PREFIX)/bin"

# What `install` copies, without the dependency check (debian/rules uses it).
install-files: release extension gnome-extension
	SWIFT=$(SWIFT) scripts/swift-build.sh $(RELEASE_FLAGS) --product generate-manual
	scripts/make-manual.sh .build/release/miga .build/release/generate-manual .build/man
	install -D -m 755 .build/release/miga $(root)/bin/miga
	install -D -m 755 .build/release/miga-gate-window $(root)/lib/miga/miga-gate-window
	# The gate window's hidden desktop entry and miga's one icon: docks and Alt-Tab say "miga".
	sed 's|@WINDOW@|$(PREFIX)/lib/miga/miga-gate-window|' data/app.miga.Gate.desktop.in > .build/app.miga.Gate.desktop
	install -D -m 644 .build/app.miga.Gate.desktop $(root)/share/applications/app.miga.Gate.desktop
	install -D -m 644 data/icons/app.miga.Gate.svg $(root)/share/icons/hicolor/scalable/apps/app.miga.Gate.svg
	# The miga app (welcome, hub, stats, settings) and its entry, under the same icon.
	install -D -m 755 .build/release/miga-app $(root)/bin/miga-app
	sed 's|@APP@|$(PREFIX)/bin/miga-app|' data/app.miga.Miga.desktop.in > .build/app.miga.Miga.desktop
	install -D -m 644 .build/app.miga.Miga.desktop $(root)/share/applications/app.miga.Miga.desktop
	install -D -m 644 data/miga-app.1 $(root)/share/man/man1/miga-app.1
	# A completion is sourced, not run: no #! line.
	.build/release/miga --generate-completion-script bash | sed '1{/^#!/d}' > .build/miga.bash
	.build/release/miga --generate-completion-script zsh > .build/_miga
	.build/release/miga --generate-completion-script fish > .build/miga.fish
	install -D -m 644 .build/miga.bash $(root)/share/bash-completion/completions/miga
	install -D -m 644 .build/_miga $(DESTDIR)$(ZSH_COMPLETIONS)/_miga
	install -D -m 644 .build/miga.fish $(root)/share/fish/vendor_completions.d/miga.fish
	install -D -m 644 .build/man/miga.1 $(root)/share/man/man1/miga.1
	# The browser extension, to load unpacked, and the name browsers start miga's host by
	# (a manifest's path takes no arguments; miga knows this argv[0]).
	install -d $(DESTDIR)$(EXTENSION_DIR) $(root)/lib/miga
	for family in chromium firefox; do install -d $(DESTDIR)$(EXTENSION_DIR)/$$family && \
		install -m 644 .build/browser/$$family/* $(DESTDIR)$(EXTENSION_DIR)/$$family/; done
	ln -sf ../../bin/miga $(root)/lib/miga/miga-native-host
	# The GNOME Shell extension (`miga install` enables it where GNOME Shell runs).
	install -d $(DESTDIR)$(GNOME_SHELL_EXTENSION_DIR) $(DESTDIR)$(GNOME_SHELL_45_DIR)
	install -m 644 .build/gnome-shell/43/miga@miga.app/* $(DESTDIR)$(GNOME_SHELL_EXTENSION_DIR)/
	install -m 644 .build/gnome-shell/45/miga@miga.app/* $(DESTDIR)$(GNOME_SHELL_45_DIR)/
	@echo "installed miga in $(root)/bin; run \`miga install\` to put it in front of your apps"

# A Debian package, miga_VERSION_ARCH.deb, in this folder: `sudo apt install ./miga_*.deb`.
# Everything dpkg-buildpackage writes goes to .build/deb (not beside the source tree).
deb:
	@scripts/deps.sh deb
	@changelog=$$(dpkg-parsechangelog -S Version); [ "$$changelog" = "$(VERSION)" ] || { \
		echo "debian/changelog is at $$changelog but Sources/MigaCore/Version.swift says $(VERSION):" \
			"add an entry with \`dch -v $(VERSION)\`" >&2; exit 1; }
	rm -rf .build/deb && mkdir -p .build/deb
	dpkg-buildpackage -b -us -uc --buildinfo-option=-u.build/deb --changes-option=-u.build/deb \
		--buildinfo-file=.build/deb/miga.buildinfo --changes-file=.build/deb/miga.changes
	mv .build/deb/miga_$(VERSION)_*.deb .
	@echo "built $$(ls miga_$(VERSION)_*.deb); install it with: sudo apt install ./$$(ls miga_$(VERSION)_*.deb)"

# Only the files `make install` wrote; run `miga uninstall` first to undo `miga install`.
uninstall:
	rm -f $(installed)
	rm -rf $(DESTDIR)$(EXTENSION_DIR) $(DESTDIR)$(GNOME_SHELL_EXTENSION_DIR) $(DESTDIR)$(GNOME_SHELL_45_DIR)
	# Only when empty.
	rmdir $(dir $(DESTDIR)$(GNOME_SHELL_45_DIR)) 2>/dev/null || true
	rmdir $(root)/lib/miga $(dir $(DESTDIR)$(EXTENSION_DIR)) 2>/dev/null || true

bench: build
	bench/run.sh
	bench/instructions.sh
	bench/stats.sh
	SWIFT=$(SWIFT) scripts/swift-build.sh $(RELEASE_FLAGS) --product toml-bench
	.build/release/toml-bench
	python3 bench/browser.py
	python3 bench/window.py

clean:
	rm -rf .build debian/miga debian/.debhelper debian/debhelper-build-stamp debian/files debian/*.substvars debian/*.log
