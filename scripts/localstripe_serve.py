"""localstripe (a fake, stateful Stripe API) as the local stack runs it.

localstripe's own entry point listens on every interface and pickles its whole store to one fixed file in
/tmp after every write, which parallel test runs would share. This wrapper listens on 127.0.0.1 only and
keeps the store where it is told, takes the PaymentIntent fields the shop sends that localstripe does not
know (accept_order_details), and puts the shim (localstripe_shim.py: idempotency keys, the events localstripe
does not send, fees, disputes, faults on demand) in front of it:

  --port PORT     the port (required)
  --state FILE    load the store from FILE at start and save it there after each write, as a new file
                  renamed over the old one, so a crash never leaves a store that will not load;
                  without it the store lives in memory only (tests).
"""
import argparse
import logging
import os
import pickle
import tempfile

from aiohttp import web

from localstripe import resources
from localstripe.server import app

import localstripe_shim


def keep_store_in(path):
    store = resources.store

    def load():
        try:
            with open(path, "rb") as f:
                old = pickle.load(f)
        except FileNotFoundError:
            return
        except Exception as error:  # an unreadable store is set aside, never fatal
            logging.warning("localstripe: %s unreadable (%s): starting empty", path, error)
            os.replace(path, path + ".unreadable")
            return
        dict.clear(store)
        dict.update(store, old)

    def dump():
        folder = os.path.dirname(path) or "."
        os.makedirs(folder, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".localstripe-")
        with os.fdopen(handle, "wb") as f:
            pickle.dump(dict(store), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)

    type(store).try_load_from_disk = lambda self: load()
    type(store).dump_to_disk = lambda self: dump()
    load()


def keep_store_in_memory():
    type(resources.store).dump_to_disk = lambda self: None


def accept_order_details():
    """Stripe's PaymentIntent takes a description and a shipping address (the shop sends the order's number
    and where it goes, which the Dashboard, the bank and Radar read); localstripe refuses both as unexpected.
    Here they are kept on the intent and answered with it, as Stripe does."""
    create = resources.PaymentIntent.__init__

    def init(self, description=None, shipping=None, **kwargs):
        create(self, **kwargs)
        self.description = description
        self.shipping = shipping

    resources.PaymentIntent.__init__ = init


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--state")
    args = parser.parse_args()
    accept_order_details()
    if args.state:
        keep_store_in(os.path.abspath(args.state))
    else:
        keep_store_in_memory()
    localstripe_shim.install(app)
    web.run_app(app, host="127.0.0.1", port=args.port, print=None, access_log=None)


if __name__ == "__main__":
    main()
