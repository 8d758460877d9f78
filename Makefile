# miga — common tasks. `make demo` and `make test` are the README's two set-up commands.
SWIFT ?= swift
# A static Swift runtime starts several milliseconds faster than loading the shared one,
# which is most of the pass-through budget (see bench/run.sh); stripped for size.
RELEASE_FLAGS = -c release --static-swift-stdlib -Xlinker -s

.PHONY: deps build demo test bench clean

deps:
	@scripts/deps.sh

build: deps
	$(SWIFT) build $(RELEASE_FLAGS)

# A real gateway in front of a demo command, with the bundled content.
demo: build
	.build/release/miga gate --app demo -- /usr/bin/env printf '%s\n' "The demo app opened with these arguments:" one "two words" ''

test: deps
	scripts/test.sh

bench: build
	bench/run.sh

clean:
	rm -rf .build
