from cbam.cli import main

raise SystemExit(main())
